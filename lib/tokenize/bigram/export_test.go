package bigram

// Stable exposes stable to the black-box tests.
var Stable = stable
