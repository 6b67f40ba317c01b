import CX11
import Testing

@testable import X11Selections

/// The typed masks carry Xlib's own bits, read from `<X11/X.h>` here.
@Suite struct XlibConstantTests {
  @Test func eventMasksAreXlibs() {
    let pairs: [(XWindow.EventMask, Int)] = [
      (.keyPress, KeyPressMask), (.keyRelease, KeyReleaseMask), (.buttonPress, ButtonPressMask),
      (.buttonRelease, ButtonReleaseMask), (.pointerMotion, PointerMotionMask),
      (.buttonMotion, ButtonMotionMask), (.exposure, ExposureMask),
      (.structureNotify, StructureNotifyMask), (.propertyChange, PropertyChangeMask),
    ]
    for (mask, xlib) in pairs { #expect(mask.rawValue == xlib) }
  }

  @Test func modifiersAreXlibs() {
    let pairs: [(X11Event.Modifiers, Int32)] = [
      (.shift, ShiftMask), (.lock, LockMask), (.control, ControlMask), (.mod1, Mod1Mask),
      (.button1, Button1Mask),
    ]
    for (modifiers, xlib) in pairs { #expect(modifiers.rawValue == UInt32(xlib)) }
  }
}
