"""Document formats in and out: .docx rewritten in place, PDF text with wrapped lines joined."""
