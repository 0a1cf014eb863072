"""Tests of the rules engine against docs/rules.md, one file per section."""
