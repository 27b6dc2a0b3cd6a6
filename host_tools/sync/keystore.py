"""The host's copy of each bowl's keys (docs/security.md).

A JSON file beside the database (`bobing.db.keys` for `bobing.db`), readable
and writable by its owner only (mode 0600, written through a temp file and a
rename): {"<bowl id>": {"<generation>": "<64 hex digits>", ...}, ...}.
Every generation is kept: the bowl names the one it holds in its challenge,
and a key the host made but could not install is never mistaken for it.
"""

import json
import os
import secrets

from host_tools.errors import UsageError

KEY_BYTES = 32


def path_for(db_path):
    return db_path + ".keys"


class KeyStore:
    def __init__(self, db_path):
        self.path = path_for(db_path)
        self.keys = self._read()

    def _read(self):
        try:
            with open(self.path, encoding="utf-8") as f:
                data = json.load(f)
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as e:
            raise UsageError("%s: cannot read the bowls' keys: %s" % (self.path, e)) from None
        if not isinstance(data, dict) or not all(
            isinstance(gens, dict) and all(isinstance(k, str) and len(k) == 64 for k in gens.values())
            for gens in data.values()
        ):
            raise UsageError("%s: not a bobing key file" % self.path)
        if os.name == "posix" and os.stat(self.path).st_mode & 0o077:
            raise UsageError("%s: readable by others: chmod 600 it (it holds the bowls' keys)" % self.path)
        return data

    def key(self, bowl, generation):
        """The key of that generation (bytes), or None."""
        text = self.keys.get(bowl, {}).get(str(generation))
        return None if text is None else bytes.fromhex(text)

    def all(self, bowl):
        """Every key of the bowl, newest first."""
        gens = self.keys.get(bowl, {})
        return [bytes.fromhex(gens[g]) for g in sorted(gens, key=int, reverse=True)]

    def make(self, bowl, generation):
        """A new random key for the bowl's generation (1..255, as the bowl
        keeps it), saved before it goes anywhere."""
        key = secrets.token_bytes(KEY_BYTES)
        self.keys.setdefault(bowl, {})[str(generation)] = key.hex()
        self._write()
        return key

    def _write(self):
        temp = self.path + ".tmp"
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(self.keys, f, indent=1, sort_keys=True)
        os.replace(temp, self.path)
