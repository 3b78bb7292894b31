"""The Punto Banco table: `engine` (the phase machine), `events` (its vocabulary and log)
and `history` (a shoe record that saves and replays)."""
