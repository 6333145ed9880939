"""PBN 2.1 (Portable Bridge Notation): read games into a visitor (:mod:`.reader`), write
records back (:mod:`.writer`).

``iter_records``, ``loads``, ``load`` and ``load_path`` read; ``dumps`` and ``dump`` write.
"""

from .reader import iter_records, load, load_path, loads
from .writer import MANDATORY_TAGS, dump, dumps

__all__ = ["MANDATORY_TAGS", "dump", "dumps", "iter_records", "load", "load_path", "loads"]
