"""The full-screen Textual interface: ``mexitrain.ui.app.run(setup, speed)``.

Layout: ``board.py`` is plain Python (what the screen shows; its words come from :mod:`mexitrain.text`),
``widgets/`` render a :class:`~mexitrain.ui.board.Board` and post intents, ``screens/`` hold
the widgets and key bindings, and ``app.py`` owns the game snapshot and the computer turns.
"""
