// The system layer speaks swift-system's types: a module that imports FerrySystem names
// `FileDescriptor` and `Errno` without importing SystemPackage as well.
@_exported import SystemPackage
