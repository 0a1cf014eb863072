# Declarations for the optional compiled build (setup.py, MEXITRAIN_COMPILE=1) only: Cython
# reads them beside step.py, plain Python never does. No code: step's small ints (seat, phase, train, lay code, line, end) as C longs; a move is one too.
# Only types that every value the .py gives them already has (no None, no big ints).

cimport cython
from .compact cimport Core
from .lookup cimport Lookup

# the phase, event and move codes imported from lookup.py, as C constants here
cdef long CHAIN, DRAWN, E_DRAW, FOLLOW_UP, FOLLOW_UP_DRAWN, GAME_OVER, SWAN, TURN
cdef long M_DRAW, M_MARK, M_SKIP, _DRAW_EVENT

@cython.locals(tab=Lookup, hands=list, laid=list, open_dbl=list, marker=list, seat=long,
               phase=long, ti=long, lay=long, line=long, end=long, double=bint, t=long)
cpdef step(Core c, long m)
@cython.locals(tab=Lookup)
cpdef end_turn(Core c, played)
