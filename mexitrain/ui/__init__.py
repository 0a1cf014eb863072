"""The full-screen Textual interface: ``mexitrain.ui.app.run(setup, speed)``.

Layout: ``board.py`` and ``words.py`` are plain Python (what the screen shows, in words),
``widgets/`` render a :class:`~mexitrain.ui.board.Board` and post intents, ``screens/`` hold
the widgets and key bindings, and ``app.py`` owns the game snapshot and the computer turns.
"""
