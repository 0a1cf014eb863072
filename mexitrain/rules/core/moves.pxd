# Declarations for the optional compiled build (setup.py, MEXITRAIN_COMPILE=1) only: Cython
# reads them beside moves.py, plain Python never does. No code: legal's small ints as C longs, its lists as lists.
# Only types that every value the .py gives them already has (no None, no big ints).

cimport cython
from .compact cimport Position
from .lookup cimport Lookup

# the phase and move codes imported from lookup.py, as C constants here
cdef long CHAIN, DRAWN, E_PLAY, FOLLOW_UP, FOLLOW_UP_DRAWN, GAME_OVER, SWAN, TURN
cdef long M_DRAW, M_MARK, M_PASS, M_SKIP

# c is a Position, not a Core: the move generator also runs on a seat's CompactView
# (seat.py), which is a Position too
cpdef usable_lines(Position c, long seat)
@cython.locals(blocking=list, ends=list, sat=list, x=long)
cpdef blocking_lines(Position c, long exclude=*)
@cython.locals(tab=Lookup)
cpdef swan_next(Position c)
cpdef plays(Position c)
@cython.locals(tab=Lookup)
cpdef end_without_play(Position c)
cpdef bint passes_by_choice(Position c)

@cython.locals(tab=Lookup, ps=list, lines=list, ends=list, fit=list, codes=list,
               one_lay=list, base=list, out=list, phase=long, seat=long, end=long, line=long,
               owed=long)
cpdef legal(Position c)
