"""The full-screen Textual interface: ``mexitrain.ui.app.run(setup, speed)``.

Layout: ``board.py`` is plain Python (what the screen shows; its words come from :mod:`mexitrain.text`),
``widgets/`` render a :class:`~mexitrain.ui.board.Board` and post intents, ``screens/`` hold
the widgets and key bindings and post messages, and ``app.py`` runs the game session
(:mod:`mexitrain.session`) with Textual: screens, workers, notices and the computer turns.
"""
