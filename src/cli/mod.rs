//! CLI tools.
