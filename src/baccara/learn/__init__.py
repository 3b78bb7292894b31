"""Teaching: the game's words (`glossary`), its lessons and tableau (`lessons`), and the
figures the engines compute for the Learn pages (`book`)."""
