"""Tests in a real headless browser (Debian's Chromium through Selenium), marked ``browser``."""
