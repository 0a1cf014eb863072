# Declarations for the optional compiled build (setup.py, MEXITRAIN_COMPILE=1) only: Cython
# reads them beside compact.py, plain Python never does. No code: the fields of
# Position and Core (their __slots__, in order; tests/rules/test_compiled.py holds them equal).
# Only types that every value the .py gives them already has (no None, no big ints): the
# small ints the move generator and the step read most (seat to move, phase, boneyard
# position, owed line, drawn tile, markers as bits) as C longs; the table as a Lookup.

from .lookup cimport Lookup

cdef class Position:
    cdef public Lookup tab
    cdef public object round
    cdef public object engine
    cdef public object engine_seat
    cdef public object first_seat
    cdef public long turn
    cdef public long phase
    cdef public object hands
    cdef public object bone
    cdef public long bpos
    cdef public object off
    cdef public object train_lines
    cdef public object ends
    cdef public object laid
    cdef public object starts
    cdef public object line_ti
    cdef public object line_li
    cdef public object base
    cdef public object open_dbl
    cdef public object marker
    cdef public object mexican_starter
    cdef public long dline
    cdef public long drawn
    cdef public object swan_pos
    cdef public object chain_right
    cdef public object failed
    cdef public object events
    cdef public object plays_cache
    cdef public long mbits


cdef class Core(Position):
    cdef public object seed
    cdef public object starter
    cdef public object order
    cdef public object rank
    cdef public object queue
    cdef public long idle
    cdef public object results
    cdef public object round_scores
    cdef public object winners
    cdef public object dealt_hands
    cdef public object dealt_boneyard
    cdef public bint over
