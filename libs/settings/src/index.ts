// What the services' domains, the settings loader and the command line use of this library.
export { isSettingsMapping, mergeSettings, parseSettingsText, SettingsFileError, type SettingsFormat, settingsFormatOf, settingsSection } from './settings.js';
