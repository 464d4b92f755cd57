import ArgumentParser

/// What `nbridge init --template` makes: a page with its headless entry beside it (the default),
/// a headless app only, or a page built by Vite's dev server.
enum AppTemplate: String, CaseIterable, ExpressibleByArgument {
  case page
  case headless
  case vite
}
