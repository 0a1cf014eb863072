"""Every sentence the game says, in the player's language (:mod:`mexitrain.i18n`): the only
place English is written for players. Plain strings, no markup, no Textual.

One module a topic; import from the topic module:

- :mod:`~mexitrain.text.names`: what a name may hold, :func:`~mexitrain.text.names.printable`,
  cutting and fitting text in terminal cells;
- :mod:`~mexitrain.text.basics`: numbers, places, quotes, lists, levels, seats, people, trains,
  tiles in words;
- :mod:`~mexitrain.text.refusals`: illegal moves and undo refusals (from the rules' codes and
  values), and what undo takes back;
- :mod:`~mexitrain.text.events`: a move, a round's header and end, the winners;
- :mod:`~mexitrain.text.rules`: preset titles, option help, the rules summary, the choices made
  where the sources are silent;
- :mod:`~mexitrain.text.status`: the turn prompt and the knock;
- :mod:`~mexitrain.text.files`: problems with saves, records, statistics and the system's files;
- :mod:`~mexitrain.text.validation`: values refused on the form, the command line and in files;
- :mod:`~mexitrain.text.errors`: any of those errors as one line.

Sentences are whole message ids with ``{name}`` placeholders, so a translation may reorder
them. Only the rules (:mod:`mexitrain.rules`) and :mod:`mexitrain.i18n` are imported here.
"""
