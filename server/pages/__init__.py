"""The pages: the director's console, the live results display and the room's screen, the JSON API,
vugraph and the hand viewer's live pages, sign-in, and the headers every answer carries."""
