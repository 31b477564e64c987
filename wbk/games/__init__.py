"""The rules of each game as pure functions over plain data, one module per rule set."""
