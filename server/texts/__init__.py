"""The words of the pages and the printouts in Spanish and English: one table (i18n.PAGES) that a
module per page fills."""
