# Declarations for the optional compiled build (setup.py, MEXITRAIN_COMPILE=1) only: Cython
# reads them beside moves.py, plain Python never does. No code: legal's small ints as C longs, its lists as lists.
# Only types that every value the .py gives them already has (no None, no big ints).

cimport cython
from .tables cimport Table

# c is not typed Core: the move generator also runs on a seat's CompactView (seat.py), which
# has the same field names but is not a Core
cpdef plays(c)
cpdef usable_lines(c, seat)
cpdef swan_next(c)

@cython.locals(tab=Table, ps=list, lines=list, ends=list, fit=list, line_codes=list, codes=list,
               one_lay=list, base=list, out=list, phase=long, seat=long, end=long, line=long,
               owed=long, x=long)
cpdef legal(c)
