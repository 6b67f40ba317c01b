extension X11Display {
  /// Sets how long a requestor may take over each step of an incremental (INCR) transfer
  /// this display's owner serves before the transfer is dropped (5 s unless set).
  ///
  /// - Parameter timeout: More than zero.
  public func setServingStepTimeout(_ timeout: Duration) async {
    _ = try? await loop.perform { session in session.owner.stepTimeout = timeout }
  }
}
