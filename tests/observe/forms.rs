//! Other forms HBase prints: list_regions and status 'detailed'.
