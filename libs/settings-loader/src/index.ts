// What the services and the command line use of this library.
export { loadProjectKnowledge } from './knowledge-file.js';
export { loadSettingsFile, type LoadSettingsOptions, readSettingsDocument, readSettingsText, settingsPathNear } from './settings-file.js';
