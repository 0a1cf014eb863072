"""mexitrain: Mexican Train dominoes as a full-screen terminal game."""

__version__ = "0.1.0"
