// placeholder: built by npm run build
