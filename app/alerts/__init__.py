"""Turn alerts for people whose page is closed: what is due (written in the move's own
transaction), the outbox a worker in every process sends from, and each channel (Web
Push, mail with address confirmation, the room's webhook) behind an address guard."""
