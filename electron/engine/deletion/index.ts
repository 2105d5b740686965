// Deletion, the user's one write: impact preview, the delete itself and the byte scrub after it.
export { previewDeletion, deleteFacts, type DeleteOptions } from './delete';
export { scrubDeletedText, checkpointTruncate } from './scrub';
