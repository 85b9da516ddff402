"""Looking back: any step of any game as a seat may see it (``replay``, over the log's
read-only ``queries``), game records exported and imported (``records``, ``format``),
and verifying a record's deal and moves (``verify``, ``verify_cli``)."""
