//! grundy-sparse: the rare/common ("sparse space") engine for take-and-break codes.
