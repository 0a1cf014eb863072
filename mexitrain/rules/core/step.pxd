# Declarations for the optional compiled build (setup.py, MEXITRAIN_COMPILE=1) only: Cython
# reads them beside step.py, plain Python never does. No code: step's small ints (seat, phase, train, lay code, line, end) as C longs; a move is one too.
# Only types that every value the .py gives them already has (no None, no big ints).

cimport cython
from .compact cimport Core
from .tables cimport Table

@cython.locals(tab=Table, hands=list, laid=list, open_dbl=list, marker=list, seat=long,
               phase=long, ti=long, lay=long, line=long, end=long, double=bint, t=long)
cpdef step(Core c, long m)
@cython.locals(tab=Table)
cpdef end_turn(Core c, played)
