"""The Laws at the table, one module per family, for a director to read.

Each test does what happens at a table, through the table daemon's inbox (keys on the seats'
keypads, cards on the reader, the director's rulings), and reads what each seat's display
shows and what the table publishes (tests/laws/table.py). The laws are those of the Spanish
federation's 2007 text for Laws 17 to 40 (seed 002) and of the 2017 Laws for Laws 41 to 71.

- test_claims.py: claims and concessions (68-70); a call after the auction (39)
- test_opening_lead.py: the face-down opening lead, the review, questions and answers (20,
  22B, 25A3, 40B, 41)
- test_changes_of_call.py: changes of call (25A, 25B)
- test_revokes_and_penalty_cards.py: following suit, revokes, penalty cards (44, 50, 52,
  61-64), and who is told what
- test_wrong_boards.py: turned and fouled boards (7B, 15, 87)
- test_rulings.py: the director's rulings at the table (28A, 30B2, 37), a ruling refused
"""
