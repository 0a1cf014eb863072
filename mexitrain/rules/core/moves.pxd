# Declarations for the optional compiled build (setup.py, MEXITRAIN_COMPILE=1) only: Cython
# reads them beside moves.py, plain Python never does. No code: legal's small ints as C longs, its lists as lists.
# Only types that every value the .py gives them already has (no None, no big ints).

cimport cython
from .compact cimport Core
from .tables cimport Table

cpdef plays(Core c)
cpdef usable_lines(Core c, seat)
cpdef swan_next(Core c)

@cython.locals(tab=Table, ps=list, lines=list, ends=list, fit=list, line_codes=list, codes=list,
               one_lay=list, base=list, out=list, phase=long, seat=long, end=long, line=long,
               owed=long, x=long)
cpdef legal(Core c)
