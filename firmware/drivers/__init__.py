"""Drivers for the parts on the boards, written against the shim's Pin, SPI, I2C and clock."""
