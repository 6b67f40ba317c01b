#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The private type Ferry's own offers carry where a display server cannot say who owns a
/// selection (Wayland), and through which Ferry knows its own copy when a bridge hands it
/// back (the compositor's XWayland bridge lists it among an X owner's targets).
public enum FerryMarker {
  /// This process's marker: `application/x-ferry-owner-PID`. Another Ferry process's copy
  /// carries another marker, and is a copy like any program's.
  public static let name = "application/x-ferry-owner-\(getpid())"

  /// Whether `name` is any Ferry process's marker, never a target worth reading.
  public static func isMarker(_ name: String) -> Bool {
    name.hasPrefix("application/x-ferry-owner-")
  }
}
