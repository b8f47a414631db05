"""`mcp-codegen tools`: a typed package for one server's tools."""
