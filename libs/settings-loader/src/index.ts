// What the services and the command line use of this library.
export { loadProjectKnowledge } from './knowledge-file.js';
export { readSettingsText } from './settings-file.js';
