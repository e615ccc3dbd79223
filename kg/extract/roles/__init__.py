"""Who holds which role in which organization: titles, appositions and career verbs (``RoleReader``)."""
