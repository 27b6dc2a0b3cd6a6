"""A bowl's log on the host: the serial link, the sync, the database, keys, salvage."""
