"""Tests of mexitrain/text/: every sentence, in English and French."""
