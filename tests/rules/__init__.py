"""Tests of the rules engine against RULES.md, one file per section."""
