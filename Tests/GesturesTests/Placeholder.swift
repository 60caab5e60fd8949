// Placeholder so the target builds; delete once the module has real tests.
