"""Files: the data directory, saved games and the autosave, statistics (docs/saves.md).

Everything the app needs is re-exported here::

    from mexitrain.storage import data_dir, autosave, find_autosave, load_game, SaveError
"""

from .atomic import clean_stale_temps, move_aside, write_bytes, write_text
from .autosaves import (
    Unfinished,
    autosave,
    begin_resume,
    clear_autosave,
    end_resume,
    find_autosave,
    find_autosaves,
    game_autosave_path,
    new_game_id,
    set_aside,
)
from .paths import (
    ENV_VAR,
    autosave_path,
    autosaves_dir,
    data_dir,
    save_file_name,
    save_path,
    saves_dir,
    settings_path,
    stats_db_path,
    stats_path,
)
from .savefile import SavedGame, SaveError, load_game, load_save
from .saves import SaveInfo, list_saves, save_game, save_named

__all__ = [
    "ENV_VAR",
    "SaveError",
    "SaveInfo",
    "SavedGame",
    "Unfinished",
    "autosave",
    "autosave_path",
    "autosaves_dir",
    "begin_resume",
    "clean_stale_temps",
    "clear_autosave",
    "data_dir",
    "end_resume",
    "find_autosave",
    "find_autosaves",
    "game_autosave_path",
    "new_game_id",
    "set_aside",
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
    "stats_db_path",
    "stats_path",
    "write_bytes",
    "write_text",
]
