"""Files: the data directory, saved games and the autosave, statistics (docs/saves.md).

Everything the app needs is re-exported here::

    from mexitrain.storage import data_dir, autosave, find_autosave, load_game, SaveError
"""

from .atomic import clean_stale_temps, move_aside, write_bytes, write_text
from .paths import (
    ENV_VAR,
    autosave_path,
    data_dir,
    save_file_name,
    save_path,
    saves_dir,
    settings_path,
    stats_path,
)
from .saves import (
    SavedGame,
    SaveError,
    SaveInfo,
    autosave,
    clear_autosave,
    find_autosave,
    list_saves,
    load_game,
    load_save,
    save_game,
    save_named,
)

__all__ = [
    "ENV_VAR",
    "SaveError",
    "SaveInfo",
    "SavedGame",
    "autosave",
    "autosave_path",
    "clean_stale_temps",
    "clear_autosave",
    "data_dir",
    "find_autosave",
    "list_saves",
    "load_game",
    "load_save",
    "move_aside",
    "save_file_name",
    "save_game",
    "save_named",
    "save_path",
    "saves_dir",
    "settings_path",
    "stats_path",
    "write_bytes",
    "write_text",
]
