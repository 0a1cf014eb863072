"""What the tests share, once: tables to play (``tables``), hand-made positions (``positions``),
games played on to a point or to the end (``games``), the Pilot helpers of the UI tests
(``pilot``) and the check that a French error holds no English word (``french``).

Tests import it as ``support`` (``from support.tables import table``): ``tests/`` is on the
path because ``tests/conftest.py`` sits there without an ``__init__.py``.
"""
