"""Tests of mexitrain/commands/ and the command line (mexitrain/cli.py)."""
