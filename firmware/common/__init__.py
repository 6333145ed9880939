"""Logic shared by the boards: the line protocol, debouncing, health, tag-to-card mapping."""
