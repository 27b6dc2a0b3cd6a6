"""`bobing key`: give a bowl its secret key, or replace the one it has (docs/security.md).

    bobing key --port PORT [--db FILE] [--root DIR] [--wait S]

The bowl is reached as the sync reaches it (a kiosk bowl answers its
challenge with the key it holds now).  A bowl without a key gets a new
random 256-bit key: the only time a key crosses the serial line, in the
clear.  A bowl with one gets the next generation, sent XORed with
HMAC-SHA256(old key, "bobing re-key " + nonce) and checked on the bowl
before it replaces the old: the new key never crosses in the clear either.
The host saves each key (host_tools/sync/keystore.py) before it goes to the bowl,
so a cut link never leaves a bowl with a key the host lacks.  The bowl
notes the new key in its log at its next start (firmware/app/gate.py),
which `import main` makes at once.  `bobing deploy` calls give() for a
bowl that has no key.
"""

import secrets

from bobing import keyed
from bobing.hmacsha import hmac_sha256
from host_tools.args import add_bowl_arguments
from host_tools.errors import UsageError
from host_tools.sync.keystore import KeyStore

# the new key XORed with the pad under the old key, checked, then saved beside the key the
# log is chained under now (the store moves the chain to it at its next boot); prints "ok" or why not
_REKEY = """from bobing import keyed
from bobing.hmacsha import hmac_sha256
k=keyed.load(%(root)r)
if k is None or k[1]!=%(old)d:
 print('not key %(old)d')
else:
 p=keyed.rekey_pad(k[0],%(nonce)r)
 n=bytes(a^b for a,b in zip(%(sealed)r,p))
 if hmac_sha256(n,b'bobing key check')[:8]!=%(check)r:
  print('garbled')
 else:
  keyed.save(%(root)r,n,%(new)d,False,k[0] if k[2] else k[3])
  print('ok')
"""

# the first key, in the clear: the file's bytes written through a temp file
_INSTALL = """import os
f=open(%(temp)r,'wb')
f.write(%(data)r)
f.close()
os.rename(%(temp)r,%(path)r)
print('ok')
"""


# A board without a store folder gets one holding only its id (docs/storage.md, `id`)
_FIRST_ID = """import os
try:
 os.stat(%(root)r)
except OSError:
 os.mkdir(%(root)r)
 f=open(%(root)r+'/id.tmp','w')
 f.write(%(id)r)
 f.close()
 os.rename(%(root)r+'/id.tmp',%(root)r+'/id')
"""


def register(sub):
    p = sub.add_parser("key", help="give a bowl its secret key, or replace it (re-key)")
    add_bowl_arguments(p, "seconds the bowl has to answer (default 10)")
    p.set_defaults(run=run)


def next_generation(generation):
    """The generation after `generation` (1..255, as the bowl's u8 keeps it; 0: none yet)."""
    return generation % 255 + 1


def install(bowl, keys, replace=True):
    """Give the opened bowl (transport.SerialBowl) a key, or (replace) the
    next one.  Returns (old generation or None, new generation), None if it
    has a key and not replace; SyncError if the bowl refuses, UsageError if
    it holds a key this host does not."""
    from host_tools.sync.syncer import SyncError

    bowl_id = bowl.bowl_id()
    if bowl_id is None:
        raise UsageError("%s: the bowl has no id yet: start its game once, then key it" % bowl.port)
    nonce = secrets.token_hex(16).encode()
    shown = bowl.bowl_key(nonce)
    if shown is None:
        held = [int(g) for g in keys.keys.get(bowl_id, {})]
        new = next_generation(max(held, default=0))
        key = keys.make(bowl_id, new)
        path = keyed.key_path(bowl.root)
        answer = bowl.run(
            _INSTALL % {"temp": path + ".tmp", "path": path, "data": keyed.encode(key, new, False)}
        )
        old = None
    elif not replace:
        return None
    else:
        old = shown[0]
        held = keys.key(bowl_id, old)
        if held is None or hmac_sha256(held, b"bobing bowl ", nonce) != shown[1]:
            raise UsageError(
                "%s: bowl %s holds key %d, which %s does not: re-key it from the host that keyed it"
                % (bowl.port, bowl_id, old, keys.path)
            )
        new = next_generation(old)
        key = keys.make(bowl_id, new)
        pad_nonce = secrets.token_hex(16).encode()
        sealed = bytes(a ^ b for a, b in zip(key, keyed.rekey_pad(held, pad_nonce), strict=True))
        answer = bowl.run(
            _REKEY
            % {
                "root": bowl.root,
                "old": old,
                "nonce": pad_nonce,
                "sealed": sealed,
                "check": hmac_sha256(key, b"bobing key check")[:8],
                "new": new,
            }
        )
    if answer.strip() != "ok":
        raise SyncError("%s: the bowl did not take the key: %s" % (bowl.port, answer.strip()[:60]))
    return old, new


def run(args):
    from host_tools.sync.syncer import SyncError
    from host_tools.sync.transport import SerialBowl  # mpremote: the `sync` extra

    keys = KeyStore(args.db)
    bowl = SerialBowl(args.port, root=args.root, wait=args.wait, keys=keys)
    try:
        bowl.open()
        old, new = install(bowl, keys)
    except (SyncError, UsageError) as e:
        if bowl.transport is not None:
            bowl.resume()
        raise UsageError(str(e)) from None
    bowl.resume()
    print(said(bowl.bowl_id(), old, new, keys))
    return 0


def said(bowl_id, old, new, keys):
    return "bowl %s: key %d installed%s; kept in %s" % (
        bowl_id,
        new,
        "" if old is None else " in place of key %d" % old,
        keys.path,
    )


def give(bowl, keys):
    """`bobing deploy`'s step before the reset: a key for a bowl that has none
    (the line that says so), or None.  A bare board has no store yet: its
    id is made here (as its first boot would) so the key can be filed under it."""
    bowl.run(_FIRST_ID % {"root": bowl.root, "id": secrets.token_hex(8)})
    bowl.relist()
    done = install(bowl, keys, replace=False)
    return None if done is None else said(bowl.bowl_id(), done[0], done[1], keys)
