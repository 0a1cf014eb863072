"""The subcommands of ``mexitrain`` (:mod:`mexitrain.cli` parses the arguments and runs one):
one module a command (:mod:`.play`, :mod:`.simulate`, :mod:`.tournament`, :mod:`.stats`), the
argument types and one-line errors they share (:mod:`.args`) and the crash log (:mod:`.crash`).
A command's module imports what it needs when it runs, so that ``simulate`` never loads Textual.
"""
