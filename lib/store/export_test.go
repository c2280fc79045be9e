package store

// BlockVectors is blockVectors, for the tests of package store_test.
const BlockVectors = blockVectors

// BlockMessages is blockMessages, for the tests of package store_test.
const BlockMessages = blockMessages
