# Declarations for the optional compiled build (setup.py, MEXITRAIN_COMPILE=1) only: Cython
# reads them beside scoring.py, plain Python never does. No code: the Core and Lookup of end_round.
# Only types that every value the .py gives them already has (no None, no big ints).

cimport cython
from .compact cimport Core
from .lookup cimport Lookup

cpdef mask_total(mask, values)
@cython.locals(tab=Lookup)
cpdef end_round(Core c, end, out_seat)
