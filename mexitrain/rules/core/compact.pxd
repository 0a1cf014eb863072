# Declarations for the optional compiled build (setup.py, MEXITRAIN_COMPILE=1) only: Cython
# reads them beside compact.py, plain Python never does. No code: the fields of Core (its __slots__, in order; tests/rules/test_compiled.py holds them equal).
# Only types that every value the .py gives them already has (no None, no big ints).

from .tables cimport Table

cdef class Core:
    cdef public Table tab
    cdef public object seed
    cdef public object starter
    cdef public object round
    cdef public object engine
    cdef public object engine_seat
    cdef public object first_seat
    cdef public object turn
    cdef public object phase
    cdef public object hands
    cdef public object order
    cdef public object rank
    cdef public object bone
    cdef public object bpos
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
    cdef public object dline
    cdef public object drawn
    cdef public object swan_pos
    cdef public object chain_right
    cdef public object queue
    cdef public object failed
    cdef public object idle
    cdef public object events
    cdef public object results
    cdef public object round_scores
    cdef public object winners
    cdef public object dealt_hands
    cdef public object dealt_boneyard
    cdef public object plays_cache
    cdef public object mbits
    cdef public object over
