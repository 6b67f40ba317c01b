// The X11 core — connection, event loop, atoms, events, errors and the X11 types — is part
// of this library's API: code that uses `X11Display`, `XWindow` or `X11Error` from here
// needs no other import.
@_exported import X11Core
