// placeholder until this target lands
