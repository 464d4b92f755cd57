import NBridgeRuntime

extension RuntimeConfiguration {
  /// Claims the app's control socket for a run of `nbridge run` or `nbridge app`: the first run
  /// of an app serves it; a later one while the first is alive runs without it (the first keeps
  /// answering, `nbridge ps` lists it); a socket that cannot be made is reported on stderr and
  /// the run goes on without one.
  mutating func claimControlSocket() {
    switch ControlListener.claim(appID: manifest.id) {
    case .owner(let listener): controlListener = listener
    case .running: break
    case .unavailable(let why): writeStderr("nbridge: no control socket for \(manifest.id): \(why)\n")
    }
  }
}
